/**
 * Text a person typed (a name, a title) inside a sentence or a heading:
 * isolated with <bdi>, so a right-to-left name keeps the punctuation around it
 * in place, and cut with an ellipsis at the width it is given, its whole text
 * in a title.
 */
export function UserText({ text, className = "" }: { text: string; className?: string }) {
  return (
    <bdi className={`inline-block max-w-full truncate align-bottom ${className}`} title={text}>
      {text}
    </bdi>
  );
}
