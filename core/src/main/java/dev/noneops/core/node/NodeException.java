package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;

/** A node operation failed; subclasses say what was being done to which unit or path. */
public class NodeException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  public NodeException(String message) {
    super(message);
  }

  public NodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
