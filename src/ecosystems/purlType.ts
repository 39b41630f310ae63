/** The package URL type of a component (CycloneDX purl): the ecosystem's registry, Debian's, or none. */
export type PurlType = 'pypi' | 'npm' | 'maven' | 'deb' | 'generic';
