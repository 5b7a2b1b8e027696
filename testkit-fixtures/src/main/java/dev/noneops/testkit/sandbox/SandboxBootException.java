package dev.noneops.testkit.sandbox;

/** A {@link SystemdSandbox} could not be booted; the message carries its boot log and journal. */
public class SandboxBootException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SandboxBootException(String message) {
    super(message);
  }

  public SandboxBootException(String message, Throwable cause) {
    super(message, cause);
  }
}
