package dev.noneops.core.node.internal.version;

import dev.noneops.core.NoneopsException;

/** An archive holds an entry that could write outside its target: it is refused as a whole. */
public final class UnsafeArchiveException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final String archive;
  private final String entry;

  public UnsafeArchiveException(String archive, String entry, String reason) {
    super("unsafe archive " + archive + ": entry '" + entry + "': " + reason);
    this.archive = archive;
    this.entry = entry;
  }

  public String archive() {
    return archive;
  }

  public String entry() {
    return entry;
  }
}
