const PLACEHOLDER = '/placeholder.svg';

interface AuctionImageProps {
  url: string | null | undefined;
  alt: string;
  className?: string;
}

/** An auction's picture, or the default image when it has none. */
export const AuctionImage = ({ url, alt, className = '' }: AuctionImageProps) => (
  <img
    className={`auction-image ${className}`}
    src={url ?? PLACEHOLDER}
    alt={url ? alt : `${alt} (no photo)`}
    loading="lazy"
    onError={(event) => {
      if (!event.currentTarget.src.endsWith(PLACEHOLDER)) event.currentTarget.src = PLACEHOLDER;
    }}
  />
);
