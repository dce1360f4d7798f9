/**
 * The `format` values the validator asserts (RFC 3339 dates and times, RFC 5321 addresses, RFC 1123 host
 * names, RFC 4291 addresses, RFC 3986 URIs, RFC 4122 UUIDs, RFC 6901 pointers); any other format is ignored.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
// RFC 3339 appendix A: weeks alone, or date parts then time parts, largest first, without gaps.
const DURATION =
  /^P(?:\d+W|(?=\d|T\d)(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)?(?:T(?=\d)(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?)$/;
const HOSTNAME = /^(?=.{1,253}$)[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)*$/i;
const IPV4_PART = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${IPV4_PART}(?:\\.${IPV4_PART}){3}$`);
const IPV6_GROUP = /^[\da-f]{1,4}$/i;
const EMAIL_LOCAL = /^[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*$/;
// RFC 3986's characters: unreserved, reserved and percent-encoded octets.
const URI_CHARACTERS = "(?:[\\w\\-.~:/?#[\\]@!$&'()*+,;=]|%[\\da-f]{2})*";
const URI = new RegExp(`^[a-z][a-z\\d+\\-.]*:${URI_CHARACTERS}$`, "i");
const URI_REFERENCE = new RegExp(`^(?:[a-z][a-z\\d+\\-.]*:)?${URI_CHARACTERS}$`, "i");
const UUID = /^[\da-f]{8}-(?:[\da-f]{4}-){3}[\da-f]{12}$/i;
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9]\d*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

/** An RFC 3339 full-time: a leap second (:60) only where it is 23:59 in UTC. */
function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (!match) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const offset = (match[4] === "-" ? -1 : 1) * (Number(match[5] ?? 0) * 60 + Number(match[6] ?? 0));
  if (hour > 23 || minute > 59 || second > 60 || Number(match[5] ?? 0) > 23 || Number(match[6] ?? 0) > 59) return false;
  return second < 60 || (hour * 60 + minute - offset + 1440) % 1440 === 1439;
}

/** A date and a time joined by "T" (RFC 3339 allows "t" and a space too). */
function isDateTime(text: string): boolean {
  const parts = text.split(/[Tt ]/);
  return parts.length === 2 && isDate(parts[0]!) && isTime(parts[1]!);
}

/** Eight groups of hex, "::" standing for one or more zero groups, and an IPv4 address as the last two. */
function isIpv6(text: string): boolean {
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  const groups = tail.includes(".") ? (IPV4.test(tail) ? `${text.slice(0, lastColon + 1)}0:0` : "") : text;
  const halves = groups.split("::");
  if (halves.length > 2) return false;
  const hex = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  if (!hex.every((group) => IPV6_GROUP.test(group))) return false;
  return halves.length === 2 ? hex.length < 8 : hex.length === 8;
}

/** A dot-atom local part (quoted local parts are not accepted) at a host name or an address literal. */
function isEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (at < 1 || local.length > 64 || !EMAIL_LOCAL.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    return /^ipv6:/i.test(literal) ? isIpv6(literal.slice(5)) : IPV4.test(literal);
  }
  return HOSTNAME.test(domain);
}

function isRegex(text: string): boolean {
  try {
    new RegExp(text, "u");
    return true;
  } catch {
    return false;
  }
}

/** Each asserted format: a regular expression the whole string must match, or a function for what one cannot say. */
export const FORMATS: Readonly<Record<string, RegExp | ((text: string) => boolean)>> = {
  date: isDate,
  time: isTime,
  "date-time": isDateTime,
  duration: DURATION,
  email: isEmail,
  hostname: HOSTNAME,
  ipv4: IPV4,
  ipv6: isIpv6,
  uri: URI,
  "uri-reference": URI_REFERENCE,
  uuid: UUID,
  regex: isRegex,
  "json-pointer": JSON_POINTER,
  "relative-json-pointer": RELATIVE_JSON_POINTER,
};
