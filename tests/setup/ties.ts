import { featureTies } from "~/boot/studio-ties.server";

/** The features' ties a test hands the contexts it builds: the same wiring the site and the worker get at boot. */
export const testTies = featureTies();
