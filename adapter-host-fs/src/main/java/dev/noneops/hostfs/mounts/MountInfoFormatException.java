package dev.noneops.hostfs.mounts;

import java.io.IOException;

/** A line of a mountinfo file does not have the layout {@code proc(5)} documents. */
public class MountInfoFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public MountInfoFormatException(int lineNumber, String line, String problem) {
    super("mountinfo line " + lineNumber + ": " + problem + ": '" + line + "'");
  }
}
