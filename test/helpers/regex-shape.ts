/**
 * The quantifiers of a regular expression's source that have no upper bound (`*`, `+`, `{n,}`,
 * lazy or not), outside character classes and escapes. Specs of code that runs patterns on
 * outside input use it to show, without timing anything, that one match attempt is bounded:
 * with every quantifier bounded, an attempt cannot rescan the rest of a long input.
 */
export function unboundedQuantifiers(re: RegExp): string[] {
  const outsideClasses = re.source.replace(/\\./g, 'e').replace(/\[(?:\\.|[^\]\\])*\]/g, 'c');
  return outsideClasses.match(/[*+]\??|\{\d+,\}\??/g) ?? [];
}
