/** The fixed categories of spec §2, with the home page's approximate item counts. */
export const FIXED_CATEGORIES = [
  { name: 'Art & Collectibles', label: '2.5k+', icon: 'palette' },
  { name: 'Jewelry & Watches', label: '1.8k+', icon: 'gem' },
  { name: 'Vehicles', label: '950+', icon: 'car' },
  { name: 'Real Estate', label: '420+', icon: 'house' },
  { name: 'Fashion', label: '3.2k+', icon: 'shirt' },
  { name: 'Electronics', label: '1.5k+', icon: 'laptop' },
  { name: 'Gaming', label: '890+', icon: 'gamepad' },
  { name: 'Antiques', label: '670+', icon: 'vase' },
] as const;

export type FixedCategoryIcon = (typeof FIXED_CATEGORIES)[number]['icon'];
