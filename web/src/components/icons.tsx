import type { ReactNode } from 'react';

export type IconName =
  | 'shield'
  | 'globe'
  | 'bolt'
  | 'palette'
  | 'gem'
  | 'car'
  | 'house'
  | 'shirt'
  | 'laptop'
  | 'gamepad'
  | 'vase'
  | 'bell'
  | 'devices'
  | 'truck'
  | 'rotate'
  | 'trend';

const paths: Record<IconName, ReactNode> = {
  shield: (
    <>
      <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.3 7.5 9.5 4.3-1.2 7.5-4.9 7.5-9.5V6L12 3Z" />
      <path d="m8.8 12.2 2.2 2.2 4.3-4.6" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
    </>
  ),
  bolt: <path d="M13 2 4.5 13.5H12L11 22l8.5-11.5H12L13 2Z" />,
  palette: (
    <>
      <path d="M12 3a9 9 0 1 0 0 18c1.1 0 1.8-.8 1.8-1.8 0-.5-.2-.9-.5-1.2-.3-.3-.5-.7-.5-1.2 0-1 .8-1.8 1.8-1.8h2.1A4.3 4.3 0 0 0 21 10.7C21 6.4 17 3 12 3Z" />
      <circle cx="7.5" cy="11" r="1.2" />
      <circle cx="10" cy="7" r="1.2" />
      <circle cx="15" cy="7.5" r="1.2" />
    </>
  ),
  gem: (
    <>
      <path d="M6 3h12l3.5 6L12 21 2.5 9 6 3Z" />
      <path d="M2.5 9h19M12 21 8.5 9 12 3l3.5 6L12 21" />
    </>
  ),
  car: (
    <>
      <path d="M4 16v-4l2-5.5C6.3 5.6 7 5 8 5h8c1 0 1.7.6 2 1.5L20 12v4" />
      <path d="M3 16h18v2.5H3zM4 12h16" />
      <circle cx="7.5" cy="18.5" r="1.5" />
      <circle cx="16.5" cy="18.5" r="1.5" />
    </>
  ),
  house: (
    <>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9v12h14V9M10 21v-6h4v6" />
    </>
  ),
  shirt: (
    <path d="M8.5 3 3 6l2 5 2.5-1V21h9V10l2.5 1 2-5-5.5-3c-.5 1.5-1.8 2.5-3.5 2.5S9 4.5 8.5 3Z" />
  ),
  laptop: (
    <>
      <rect x="4.5" y="4.5" width="15" height="10.5" rx="1.5" />
      <path d="M2 19h20l-1.5-4h-17L2 19Z" />
    </>
  ),
  gamepad: (
    <>
      <path d="M7 7h10a5 5 0 0 1 5 5v1.5a3.5 3.5 0 0 1-6.3 2.1L14.5 14h-5l-1.2 1.6A3.5 3.5 0 0 1 2 13.5V12a5 5 0 0 1 5-5Z" />
      <path d="M7.5 9.5v4M5.5 11.5h4" />
      <circle cx="15.5" cy="10.5" r=".9" />
      <circle cx="17.5" cy="12.5" r=".9" />
    </>
  ),
  vase: (
    <>
      <path d="M9 3h6M10 3v3c0 1-3.5 2.5-3.5 7s2 6.5 3 8h5c1-1.5 3-3.5 3-8S14 7 14 6V3" />
      <path d="M7 12.5h10" />
    </>
  ),
  bell: (
    <>
      <path d="M6 9a6 6 0 1 1 12 0c0 6 2.5 7.5 2.5 7.5h-17S6 15 6 9Z" />
      <path d="M10 20a2.2 2.2 0 0 0 4 0" />
    </>
  ),
  devices: (
    <>
      <rect x="2.5" y="4" width="13" height="10" rx="1.5" />
      <path d="M6 18h6M9 14v4" />
      <rect x="16" y="8" width="5.5" height="12" rx="1.2" />
    </>
  ),
  truck: (
    <>
      <path d="M2.5 6h11v10h-11zM13.5 9.5h4l3 3.5V16h-7" />
      <circle cx="6.5" cy="17.5" r="1.8" />
      <circle cx="17" cy="17.5" r="1.8" />
    </>
  ),
  rotate: (
    <>
      <path d="M3.5 12a8.5 8.5 0 1 0 2.6-6.1L3.5 8.5" />
      <path d="M3.5 3.5v5h5" />
    </>
  ),
  trend: (
    <>
      <path d="m3 17 6-6 4 4 8-8" />
      <path d="M15 7h6v6" />
    </>
  ),
};

/** A small stroke icon drawn locally; decorative, so hidden from screen readers. */
export const Icon = ({ name, size = 28 }: { name: IconName; size?: number }) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.7"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {paths[name]}
  </svg>
);

export interface Feature {
  icon: IconName;
  title: string;
  text: string;
}

/** One selling point: an icon, a title and a line of text (home and about pages). */
export const FeatureCard = ({ icon, title, text }: Feature) => (
  <li className="card feature-card">
    <span className="feature-icon">
      <Icon name={icon} />
    </span>
    <h3>{title}</h3>
    <p className="muted">{text}</p>
  </li>
);
