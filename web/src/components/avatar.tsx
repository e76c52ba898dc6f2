// White initials on each reach WCAG AA for text (at least 4.5:1).
const PALETTE = ['#4f46e5', '#0e7490', '#047857', '#b45309', '#b91c1c', '#7c3aed', '#be185d'];

const initialsOf = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('') || '?';

const colourOf = (name: string): string => {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length] ?? '#4f46e5';
};

interface AvatarProps {
  name: string;
  imageUrl?: string | null | undefined;
  size?: number;
  className?: string;
}

/** The user's photo, or initials drawn locally from the name (no outside avatar service). */
export const Avatar = ({ name, imageUrl, size = 40, className = '' }: AvatarProps) =>
  imageUrl ? (
    <img
      className={`avatar ${className}`}
      src={imageUrl}
      alt={name}
      width={size}
      height={size}
      style={{ width: size, height: size }}
    />
  ) : (
    <span
      className={`avatar avatar-initials ${className}`}
      role="img"
      aria-label={name}
      style={{
        width: size,
        height: size,
        background: colourOf(name),
        fontSize: Math.round(size * 0.4),
      }}
    >
      {initialsOf(name)}
    </span>
  );
