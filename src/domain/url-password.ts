/**
 * A URL as it may be shown in a message or a log: its password replaced by `***`
 * (redis://user:***@host). It works on text that is not a valid URL too (a setting being
 * refused), and masks from the user name's `:` to the last `@`: a password typed without
 * percent-encoding may hold `@`, `/`, `?` or `#` itself, and masking too much beats showing a
 * piece of it.
 */
const PASSWORD = /^([a-z][a-z\d+.-]*:\/\/[^/?#@:]*:).*@/i

export function withoutPassword(url: string): string {
  return url.replace(PASSWORD, '$1***@')
}
