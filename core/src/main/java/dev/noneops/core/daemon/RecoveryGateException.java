package dev.noneops.core.daemon;

import dev.noneops.core.NoneopsException;

/**
 * The recovery gate could not make the node consistent at boot: the stack's units, which require
 * the gate, stay down. The message is the one line the gate's journal carries: what is wrong,
 * that the stack stays down, and what to run.
 */
public final class RecoveryGateException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  RecoveryGateException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String operatorMessage() {
    return getMessage();
  }
}
