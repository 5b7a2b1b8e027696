package dev.noneops.hostfs.service;

import java.util.Objects;

/** A {@code STATUS=} value: one line, so it cannot carry a second assignment. */
final class StatusLine {
  private StatusLine() {}

  static String require(String line) {
    Objects.requireNonNull(line, "line");
    if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0 || line.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "a service status is one line without NUL: '" + line.replace("\n", "\\n") + "'");
    }
    return line;
  }
}
