import { PRODUCT_NAME } from "~/lib/product";
import {
  greeting,
  htmlButton,
  htmlHeading,
  htmlParagraph,
  mailMessage,
  type MailMessage,
} from "~/features/mail/message-layout";

/**
 * The notice to a creator that one of their images was sold with an Exclusive
 * licence (docs/decisions/101): it left the marketplace and the platforms the
 * product could take it down from, and cannot be listed again; each platform
 * where it is still up is named with what to do there.
 */
export interface ExclusiveSoldMailInput {
  creatorName: string;
  title: string;
  leftUp: { name: string; url: string | null; what: string }[];
  dashboardUrl: string;
}

export function renderExclusiveSoldMail(input: ExclusiveSoldMailInput): MailMessage {
  const subject = `Your image was sold with an Exclusive license on ${PRODUCT_NAME}`;
  const intro = `"${input.title}" was sold with an Exclusive license: you sell it to no one else from now on. We withdrew it from the marketplace and from the platforms we could, and it cannot be listed again. Licenses sold before stay valid.`;
  const still = input.leftUp.map(
    (place) => `${place.name}${place.url ? ` (${place.url})` : ""}: ${place.what}.`,
  );
  const stillIntro =
    still.length > 0
      ? "It is still up where we cannot take it down ourselves; please remove it there:"
      : "It is not up anywhere else we published it.";
  return mailMessage(
    subject,
    [
      greeting("Hello", input.creatorName).text,
      "",
      intro,
      "",
      stillIntro,
      ...still.map((line) => `- ${line}`),
      "",
      `Your listings: ${input.dashboardUrl}`,
    ],
    [
      htmlHeading("Sold with an Exclusive license"),
      greeting("Hello", input.creatorName, "spaced").html,
      htmlParagraph(intro, "spaced"),
      htmlParagraph(stillIntro, "spaced"),
      ...still.map((line) => htmlParagraph(`• ${line}`, "spaced")),
      htmlButton(input.dashboardUrl, "Open your listings"),
    ],
  );
}
