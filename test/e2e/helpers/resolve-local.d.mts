// resolve-local.mjs is a preload (node --import) with no exports.
export {};
