/** The demo creator seeded for local use (`npm start`); its password is public on purpose. */
export const DEMO_CREATOR = {
  email: "demo@selfie.studio",
  password: "demo-creator",
  firstName: "Dana",
  lastName: "Demo",
} as const;
