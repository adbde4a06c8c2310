import { LandingSection } from "~/features/landing/components/landing-section";
const STEPS = [
  {
    title: "Upload Selfie",
    text: "Drag and drop any selfie. JPG or PNG up to 10MB.",
    icon: <path d="M12 16V4m0 0l-4 4m4-4l4 4M4 16v3a1 1 0 001 1h14a1 1 0 001-1v-3" />,
  },
  {
    title: "Choose AI Style",
    text: "Professional, cartoon, anime or fantasy: pick a look and the AI does the rest.",
    icon: (
      <path d="M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM18 15l.9 2.1L21 18l-2.1.9L18 21l-.9-2.1L15 18l2.1-.9z" />
    ),
  },
  {
    title: "Monetize & Share",
    text: "List it for sale or licensing on our marketplace and beyond, and share it anywhere.",
    icon: (
      <path d="M12 2v20M17 6.5C16 5 14.3 4.5 12 4.5c-2.8 0-4.6 1.3-4.6 3.3 0 4.7 9.6 2.4 9.6 7.2 0 2.1-2 3.5-5 3.5-2.4 0-4.3-.8-5.3-2.2" />
    ),
  },
];

/** 4. How it works in three steps. */
export function HowItWorksSection() {
  return (
    <LandingSection
      headingId="how-heading"
      testId="landing-how-it-works"
      background="bg-white"
      title="How it works"
      intro="From selfie to sale in three steps."
    >
      <ol className="mt-12 grid gap-8 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <li
            key={step.title}
            className="relative rounded-2xl border border-slate-200 p-6 text-center"
          >
            <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-0.5 text-xs font-bold text-white">
              Step {index + 1}
            </span>
            <span className="mx-auto mt-2 inline-flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
              <svg
                viewBox="0 0 24 24"
                className="h-7 w-7"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
              >
                {step.icon}
              </svg>
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
            <p className="mt-2 text-slate-600">{step.text}</p>
          </li>
        ))}
      </ol>
    </LandingSection>
  );
}
