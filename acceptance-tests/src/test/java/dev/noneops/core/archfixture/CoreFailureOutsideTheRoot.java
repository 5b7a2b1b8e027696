package dev.noneops.core.archfixture;

/** A deliberately bad failure type: a core exception that does not extend the root of core's failures. */
public final class CoreFailureOutsideTheRoot extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CoreFailureOutsideTheRoot(String message) {
    super(message);
  }
}
