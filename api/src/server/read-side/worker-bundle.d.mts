/**
 * The bundle of `entry` (a file URL of a TypeScript module) and what it imports from this
 * repository, built when missing or when any of its sources changed; undefined when esbuild is
 * not installed.
 */
export declare const bundled: (entry: URL) => Promise<URL | undefined>;
