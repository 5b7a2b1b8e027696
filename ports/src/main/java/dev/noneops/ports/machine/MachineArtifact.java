package dev.noneops.ports.machine;

/** An artifact a Machine's {@code spec.agent.downloads} can redirect, with its key there. */
public enum MachineArtifact {
  KUBERNETES("kubernetes"),
  CONTAINERD("containerd"),
  RUNC("runc"),
  CNI("cni"),
  CRICTL("crictl");

  private final String key;

  MachineArtifact(String key) {
    this.key = key;
  }

  /** The key under {@code spec.agent.downloads}. */
  public String key() {
    return key;
  }
}
