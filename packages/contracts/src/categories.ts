/** The eight categories of the spec (§2), with fixed ids so seeding them is idempotent. */
export const fixedCategories = [
  {
    categoryId: 'art-collectibles',
    name: 'Art & Collectibles',
    description: 'Paintings, prints, sculpture and collectible pieces',
  },
  {
    categoryId: 'jewelry-watches',
    name: 'Jewelry & Watches',
    description: 'Fine jewelry, gemstones and timepieces',
  },
  { categoryId: 'vehicles', name: 'Vehicles', description: 'Cars, motorcycles and other vehicles' },
  {
    categoryId: 'real-estate',
    name: 'Real Estate',
    description: 'Homes, land and commercial property',
  },
  { categoryId: 'fashion', name: 'Fashion', description: 'Clothing, shoes and accessories' },
  {
    categoryId: 'electronics',
    name: 'Electronics',
    description: 'Computers, phones, audio and gadgets',
  },
  { categoryId: 'gaming', name: 'Gaming', description: 'Consoles, games and gaming gear' },
  {
    categoryId: 'antiques',
    name: 'Antiques',
    description: 'Furniture, décor and objects of earlier eras',
  },
] as const;
