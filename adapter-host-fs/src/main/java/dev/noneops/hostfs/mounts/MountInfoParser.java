package dev.noneops.hostfs.mounts;

import dev.noneops.ports.mounts.MountEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code /proc/<pid>/mountinfo} (see {@code proc(5)}):
 *
 * <pre>
 * 36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * (1)(2)(3)   (4)   (5)         (6)      (7)      (8) (9)   (10)      (11)
 * </pre>
 *
 * <p>Fields are separated by single spaces; the optional fields (7) end with a lone {@code -}. The
 * kernel escapes space, tab, newline and backslash in paths as three octal digits
 * ({@code \040}), which are decoded here; the bytes are then read as UTF-8.
 *
 * <p>A node's table has thousands of lines, so the parser walks the text by index: it cuts out
 * only the fields an entry keeps, reads the ids in place, decodes a field only when it holds a
 * backslash or a non-ASCII byte, and copies a line only to name it in an error.
 */
public final class MountInfoParser {
  private MountInfoParser() {}

  /** Every entry of a mountinfo file's raw content, in order. */
  public static List<MountEntry> parse(byte[] content) throws MountInfoFormatException {
    // ISO-8859-1 maps bytes 1:1 to chars, so escapes and raw non-ASCII bytes survive until each
    // field is decoded as UTF-8.
    return parse(new String(content, StandardCharsets.ISO_8859_1));
  }

  /** Every entry of mountinfo text whose chars are bytes (ISO-8859-1), in order. */
  public static List<MountEntry> parse(String content) throws MountInfoFormatException {
    List<MountEntry> entries = new ArrayList<>();
    int lineNumber = 0;
    int start = 0;
    int length = content.length();
    while (start < length) {
      int end = content.indexOf('\n', start);
      if (end < 0) {
        end = length;
      }
      lineNumber++;
      if (end > start) {
        entries.add(parseLine(content, start, end, lineNumber));
      }
      start = end + 1;
    }
    return entries;
  }

  /** One mountinfo line (without its newline). */
  public static MountEntry parseLine(String line, int lineNumber) throws MountInfoFormatException {
    return parseLine(line, 0, line.length(), lineNumber);
  }

  /** The line {@code text[start, end)}. */
  private static MountEntry parseLine(String text, int start, int end, int lineNumber)
      throws MountInfoFormatException {
    int idEnd = fieldEnd(text, start, start, end, lineNumber);
    int parentEnd = fieldEnd(text, idEnd + 1, start, end, lineNumber);
    int deviceEnd = fieldEnd(text, parentEnd + 1, start, end, lineNumber);
    int rootEnd = fieldEnd(text, deviceEnd + 1, start, end, lineNumber);
    int mountPointEnd = fieldEnd(text, rootEnd + 1, start, end, lineNumber);
    int optionsEnd = fieldEnd(text, mountPointEnd + 1, start, end, lineNumber);
    int separator = findSeparator(text, optionsEnd + 1, end);
    if (separator < 0) {
      throw malformed(
          text, start, end, lineNumber, "missing the ' - ' separator after the optional fields");
    }
    int afterSeparator = separator + 2;
    int fsEnd = spaceAt(text, afterSeparator, end);
    if (fsEnd < 0) {
      throw malformed(
          text, start, end, lineNumber, "missing the mount source after the filesystem type");
    }
    int sourceEnd = spaceAt(text, fsEnd + 1, end);
    if (sourceEnd < 0) {
      sourceEnd = end;
    }
    long mountId = number(text, start, idEnd, "mount id", start, end, lineNumber);
    long parentId = number(text, idEnd + 1, parentEnd, "parent id", start, end, lineNumber);
    if (!contains(text, ':', parentEnd + 1, deviceEnd)) {
      throw malformed(text, start, end, lineNumber, "device is not major:minor");
    }
    String mountPoint = unescape(text, rootEnd + 1, mountPointEnd);
    if (mountPoint.isEmpty() || mountPoint.charAt(0) != '/') {
      throw malformed(text, start, end, lineNumber, "mount point is not an absolute path");
    }
    return new MountEntry(
        mountId,
        parentId,
        text.substring(parentEnd + 1, deviceEnd),
        unescape(text, deviceEnd + 1, rootEnd),
        Path.of(mountPoint),
        text.substring(mountPointEnd + 1, optionsEnd),
        unescape(text, afterSeparator, fsEnd),
        unescape(text, fsEnd + 1, sourceEnd));
  }

  /** The end (the space after it) of one of the six fields before the optional ones, starting at {@code from}. */
  private static int fieldEnd(String text, int from, int lineStart, int lineEnd, int lineNumber)
      throws MountInfoFormatException {
    int space = spaceAt(text, from, lineEnd);
    if (space < 0) {
      throw malformed(
          text, lineStart, lineEnd, lineNumber, "expected at least 10 space-separated fields");
    }
    return space;
  }

  /** The index of the next space in {@code text[from, end)}, or -1. */
  private static int spaceAt(String text, int from, int end) {
    int space = text.indexOf(' ', from);
    return space < end ? space : -1;
  }

  private static boolean contains(String text, char c, int from, int to) {
    int at = text.indexOf(c, from);
    return at >= 0 && at < to;
  }

  /** The index of the {@code -} that ends the optional fields, or -1. */
  private static int findSeparator(String text, int from, int end) {
    int pos = from;
    while (pos < end) {
      int space = spaceAt(text, pos, end);
      if (space < 0) {
        return -1;
      }
      if (space == pos + 1 && text.charAt(pos) == '-') {
        return pos;
      }
      pos = space + 1;
    }
    return -1;
  }

  private static long number(
      String text, int from, int to, String what, int lineStart, int lineEnd, int lineNumber)
      throws MountInfoFormatException {
    try {
      return Long.parseLong(text, from, to, 10);
    } catch (NumberFormatException e) {
      throw malformed(
          text,
          lineStart,
          lineEnd,
          lineNumber,
          what + " '" + text.substring(from, to) + "' is not a number");
    }
  }

  private static MountInfoFormatException malformed(
      String text, int start, int end, int lineNumber, String problem) {
    return new MountInfoFormatException(lineNumber, text.substring(start, end), problem);
  }

  /** Decodes the kernel's {@code \ooo} escapes and reads the bytes as UTF-8. */
  static String unescape(String field) {
    return unescape(field, 0, field.length());
  }

  /** {@code text[from, to)} with the kernel's {@code \ooo} escapes decoded and its bytes read as UTF-8. */
  private static String unescape(String text, int from, int to) {
    if (isPlainAscii(text, from, to)) {
      return text.substring(from, to);
    }
    byte[] bytes = new byte[to - from];
    int length = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '\\' && isOctalEscape(text, i + 1, to)) {
        bytes[length++] = (byte) (((text.charAt(i + 1) - '0') << 6)
            | ((text.charAt(i + 2) - '0') << 3)
            | (text.charAt(i + 3) - '0'));
        i += 3;
      } else {
        bytes[length++] = (byte) c;
      }
    }
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }

  /** Whether {@code text[from, to)} has neither an escape nor a non-ASCII byte, so it needs no decoding. */
  private static boolean isPlainAscii(String text, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '\\' || c > 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text[from, from + 3)}, within {@code to}, are three octal digits of a byte ({@code \000} to {@code \377}). */
  private static boolean isOctalEscape(String text, int from, int to) {
    if (from + 3 > to) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return text.charAt(from) <= '3';
  }
}
