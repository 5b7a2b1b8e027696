package dev.noneops.hostfs.process;

import dev.noneops.ports.process.ProcessIdentity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pure parsers for the {@code /proc/<pid>} files the process table reads. Each takes a file's raw
 * bytes (the first {@code length} of {@code content}, so a reader can reuse one buffer) and
 * decodes as UTF-8 only the text it returns, never a whole file or line.
 */
public final class ProcFormats {

  private ProcFormats() {}

  /**
   * The identity in a {@code /proc/<pid>/stat} line: its pid (field 1) and {@code starttime}
   * (field 22). The command name (field 2, in parentheses) may hold spaces and parentheses, so
   * the fields after it are counted from its last {@code ')'}.
   *
   * @throws IllegalArgumentException when the line is not in that format
   */
  public static ProcessIdentity statIdentity(String stat) {
    int open = stat.indexOf(" (");
    int close = stat.lastIndexOf(") ");
    if (open <= 0 || close < open) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
    }
    String[] after = stat.substring(close + 2).strip().split(" ");
    if (after.length < 20) {
      throw new IllegalArgumentException("a /proc/<pid>/stat line with too few fields: " + stat);
    }
    try {
      return new ProcessIdentity(
          Long.parseLong(stat.substring(0, open)), Long.parseLong(after[19]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat, e);
    }
  }

  /** {@code cmdline}: arguments separated (and usually terminated) by NUL. */
  public static List<String> argv(byte[] cmdline) {
    return argv(cmdline, cmdline.length);
  }

  /** {@code cmdline} in the first {@code length} bytes of {@code content}. */
  public static List<String> argv(byte[] content, int length) {
    checkLength(content, length);
    List<String> argv = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < length; i++) {
      if (content[i] == 0) {
        argv.add(new String(content, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start < length) {
      argv.add(new String(content, start, length - start, StandardCharsets.UTF_8));
    }
    return argv;
  }

  /** The cgroup v2 path from {@code cgroup} (its {@code 0::<path>} line); empty when there is none. */
  public static String unifiedCgroup(String cgroupFile) {
    byte[] bytes = cgroupFile.getBytes(StandardCharsets.UTF_8);
    return unifiedCgroup(bytes, bytes.length);
  }

  /**
   * The cgroup v2 path from the {@code cgroup} file in the first {@code length} bytes of
   * {@code content}: the first line starting {@code 0::}, without surrounding white space.
   */
  public static String unifiedCgroup(byte[] content, int length) {
    checkLength(content, length);
    int lineStart = 0;
    while (lineStart <= length) {
      int lineEnd = indexOf(content, (byte) '\n', lineStart, length);
      if (lineEnd - lineStart >= 3
          && content[lineStart] == '0'
          && content[lineStart + 1] == ':'
          && content[lineStart + 2] == ':') {
        int from = lineStart + 3;
        int to = lineEnd;
        while (from < to && isTrimmed(content[from])) {
          from++;
        }
        while (to > from && isTrimmed(content[to - 1])) {
          to--;
        }
        return new String(content, from, to - from, StandardCharsets.UTF_8);
      }
      lineStart = lineEnd + 1;
    }
    return "";
  }

  /** The distinct file paths mapped in {@code maps}, as {@link #mappedFiles(byte[], int)}. */
  public static List<String> mappedFiles(String maps) {
    byte[] bytes = maps.getBytes(StandardCharsets.UTF_8);
    return mappedFiles(bytes, bytes.length);
  }

  /**
   * The distinct file paths mapped in the {@code maps} file in the first {@code length} bytes of
   * {@code content}, in order of first appearance. Lines are
   * {@code address perms offset dev inode pathname}; anonymous and pseudo mappings ({@code [heap]},
   * {@code [vdso]}) have no file path. A deleted file keeps the kernel's {@code " (deleted)"}.
   * A file's consecutive mappings (its segments) are decoded once.
   */
  public static List<String> mappedFiles(byte[] content, int length) {
    checkLength(content, length);
    List<String> files = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    int previousStart = 0;
    int previousLength = -1;
    int lineStart = 0;
    while (lineStart < length) {
      int lineEnd = indexOf(content, (byte) '\n', lineStart, length);
      int path = pathnameStart(content, lineStart, lineEnd);
      if (path >= 0 && content[path] == '/') {
        int pathLength = lineEnd - path;
        boolean sameAsPrevious = pathLength == previousLength
            && Arrays.equals(
                content, path, lineEnd, content, previousStart, previousStart + previousLength);
        if (!sameAsPrevious) {
          String file = new String(content, path, pathLength, StandardCharsets.UTF_8);
          if (seen.add(file)) {
            files.add(file);
          }
          previousStart = path;
          previousLength = pathLength;
        }
      }
      lineStart = lineEnd + 1;
    }
    return files;
  }

  /** Where the pathname (the sixth field, which may contain spaces) of a maps line starts; -1 when it has none. */
  private static int pathnameStart(byte[] content, int lineStart, int lineEnd) {
    int pos = lineStart;
    for (int field = 0; field < 5; field++) {
      while (pos < lineEnd && content[pos] == ' ') {
        pos++;
      }
      int space = indexOf(content, (byte) ' ', pos, lineEnd);
      if (space == lineEnd) {
        return -1;
      }
      pos = space;
    }
    while (pos < lineEnd && (content[pos] == ' ' || content[pos] == '\t')) {
      pos++;
    }
    return pos < lineEnd ? pos : -1;
  }

  /** The index of {@code b} in {@code content[from, to)}, or {@code to} when it is absent. */
  private static int indexOf(byte[] content, byte b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (content[i] == b) {
        return i;
      }
    }
    return to;
  }

  /** Whether {@link String#trim()} would drop this byte (a control character or space; never part of a multi-byte character). */
  private static boolean isTrimmed(byte b) {
    return b >= 0 && b <= ' ';
  }

  private static void checkLength(byte[] content, int length) {
    if (length < 0 || length > content.length) {
      throw new IllegalArgumentException(
          "length " + length + " is outside a buffer of " + content.length + " bytes");
    }
  }
}
