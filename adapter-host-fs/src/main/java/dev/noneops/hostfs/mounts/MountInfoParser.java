package dev.noneops.hostfs.mounts;

import dev.noneops.ports.mounts.MountEntry;
import java.io.ByteArrayOutputStream;
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
 * ({@code \040}), which are decoded here; the bytes are then read as UTF-8. Pure and allocation
 * light, so a table of thousands of mounts parses in milliseconds.
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
        entries.add(parseLine(content.substring(start, end), lineNumber));
      }
      start = end + 1;
    }
    return entries;
  }

  /** One mountinfo line (without its newline). */
  public static MountEntry parseLine(String line, int lineNumber) throws MountInfoFormatException {
    String[] fields = new String[6];
    int pos = 0;
    for (int i = 0; i < fields.length; i++) {
      int space = line.indexOf(' ', pos);
      if (space < 0) {
        throw new MountInfoFormatException(lineNumber, line, "expected at least 10 space-separated fields");
      }
      fields[i] = line.substring(pos, space);
      pos = space + 1;
    }
    int separator = findSeparator(line, pos);
    if (separator < 0) {
      throw new MountInfoFormatException(lineNumber, line, "missing the ' - ' separator after the optional fields");
    }
    int afterSeparator = separator + 2;
    int fsEnd = line.indexOf(' ', afterSeparator);
    if (fsEnd < 0) {
      throw new MountInfoFormatException(lineNumber, line, "missing the mount source after the filesystem type");
    }
    int sourceEnd = line.indexOf(' ', fsEnd + 1);
    if (sourceEnd < 0) {
      sourceEnd = line.length();
    }
    long mountId = number(fields[0], "mount id", line, lineNumber);
    long parentId = number(fields[1], "parent id", line, lineNumber);
    String device = fields[2];
    if (device.indexOf(':') < 0) {
      throw new MountInfoFormatException(lineNumber, line, "device is not major:minor");
    }
    String mountPoint = unescape(fields[4]);
    if (mountPoint.isEmpty() || mountPoint.charAt(0) != '/') {
      throw new MountInfoFormatException(lineNumber, line, "mount point is not an absolute path");
    }
    return new MountEntry(
        mountId,
        parentId,
        device,
        unescape(fields[3]),
        Path.of(mountPoint),
        fields[5],
        unescape(line.substring(afterSeparator, fsEnd)),
        unescape(line.substring(fsEnd + 1, sourceEnd)));
  }

  /** The index of the {@code -} that ends the optional fields, or -1. */
  private static int findSeparator(String line, int from) {
    int pos = from;
    while (pos < line.length()) {
      int space = line.indexOf(' ', pos);
      if (space < 0) {
        return -1;
      }
      if (space == pos + 1 && line.charAt(pos) == '-') {
        return pos;
      }
      pos = space + 1;
    }
    return -1;
  }

  private static long number(String field, String what, String line, int lineNumber) throws MountInfoFormatException {
    try {
      return Long.parseLong(field);
    } catch (NumberFormatException e) {
      throw new MountInfoFormatException(lineNumber, line, what + " '" + field + "' is not a number");
    }
  }

  /** Decodes the kernel's {@code \ooo} escapes and reads the bytes as UTF-8. */
  static String unescape(String field) {
    boolean plainAscii = true;
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' || c > 0x7f) {
        plainAscii = false;
        break;
      }
    }
    if (plainAscii) {
      return field;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        bytes.write(((field.charAt(i + 1) - '0') << 6) | ((field.charAt(i + 2) - '0') << 3) | (field.charAt(i + 3) - '0'));
        i += 3;
      } else {
        bytes.write(c & 0xff);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return s.charAt(from) <= '3';
  }
}
