import { LandingPage } from "~/components/landing-page";

export default function Landing() {
  return <LandingPage />;
}
