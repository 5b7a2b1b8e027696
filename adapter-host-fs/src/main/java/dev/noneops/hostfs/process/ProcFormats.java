package dev.noneops.hostfs.process;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Pure parsers for the {@code /proc/<pid>} files the process table reads. */
public final class ProcFormats {

  private ProcFormats() {}

  /** {@code cmdline}: arguments separated (and usually terminated) by NUL. */
  public static List<String> argv(byte[] cmdline) {
    List<String> argv = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        argv.add(new String(cmdline, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start < cmdline.length) {
      argv.add(new String(cmdline, start, cmdline.length - start, StandardCharsets.UTF_8));
    }
    return argv;
  }

  /** The cgroup v2 path from {@code cgroup} (its {@code 0::<path>} line); empty when there is none. */
  public static String unifiedCgroup(String cgroupFile) {
    for (String line : cgroupFile.split("\n", -1)) {
      if (line.startsWith("0::")) {
        return line.substring(3).trim();
      }
    }
    return "";
  }

  /**
   * The distinct file paths mapped in {@code maps}, in order of first appearance. Lines are
   * {@code address perms offset dev inode pathname}; anonymous and pseudo mappings ({@code [heap]},
   * {@code [vdso]}) have no file path. A deleted file keeps the kernel's {@code " (deleted)"}.
   */
  public static List<String> mappedFiles(String maps) {
    Set<String> files = new LinkedHashSet<>();
    for (String line : maps.split("\n")) {
      String path = pathnameOf(line);
      if (path != null && path.startsWith("/")) {
        files.add(path);
      }
    }
    return List.copyOf(files);
  }

  private static String pathnameOf(String line) {
    int pos = 0;
    for (int field = 0; field < 5; field++) {
      while (pos < line.length() && line.charAt(pos) == ' ') {
        pos++;
      }
      int space = line.indexOf(' ', pos);
      if (space < 0) {
        return null;
      }
      pos = space;
    }
    while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
      pos++;
    }
    return pos < line.length() ? line.substring(pos) : null;
  }
}
