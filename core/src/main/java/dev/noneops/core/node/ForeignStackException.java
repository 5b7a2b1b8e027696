package dev.noneops.core.node;

import java.util.List;

/**
 * The host already runs or has installed a kubelet or containerd that is not this node's:
 * bootstrap refuses it and changes nothing. {@link #findings()} lists each unit or binary found.
 */
public final class ForeignStackException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final List<String> findings;

  public ForeignStackException(List<String> findings) {
    super("the host has a kubelet or containerd of its own; refusing to install over it: "
        + String.join("; ", findings));
    this.findings = List.copyOf(findings);
  }

  public List<String> findings() {
    return findings;
  }
}
