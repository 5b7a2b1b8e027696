package dev.noneops.daemon.internal;

import dev.noneops.core.NoneopsException;

/**
 * A call on the node's Machine failed: the cluster has no Machine CRD, refused the call or could
 * not be reached, or the configuration's {@code MachineName} is not an object name. The message
 * says which Machine and why; the cause is the port's {@code MachineResourceException}.
 */
public final class MachineCallException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  public MachineCallException(String message, Throwable cause) {
    super(message, cause);
  }
}
