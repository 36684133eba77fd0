// The static pages the e2e tests visit, with the h1 each one must show.

export const STATIC_PAGES = [
  { path: "/how-it-works", heading: "How It Works" },
  { path: "/science", heading: "Why Most Sound Healing Apps Are Basically Useless" },
  { path: "/terms", heading: "Terms of Service" },
  { path: "/privacy", heading: "Privacy Policy" },
  { path: "/licensing", heading: "Licensing Terms" },
  { path: "/support", heading: "Support" },
] as const;
