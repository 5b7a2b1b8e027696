package dev.noneops.core.config;

import dev.noneops.core.NoneopsException;
import java.nio.file.Path;

/**
 * The applied config does not match its {@code .sha256} sidecar: the file was altered or damaged
 * after it was written. A daemon must not start from it.
 */
class AppliedConfigChecksumException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient Path path;
  private final String expected;
  private final String actual;

  public AppliedConfigChecksumException(Path path, String expected, String actual) {
    super(
        "applied config " + path + " does not match its checksum sidecar: the sidecar says sha256 "
            + expected + ", the file has sha256 " + actual);
    this.path = path;
    this.expected = expected;
    this.actual = actual;
  }

  public Path path() {
    return path;
  }

  /** What the sidecar says. */
  public String expected() {
    return expected;
  }

  /** What the file hashes to. */
  public String actual() {
    return actual;
  }
}
