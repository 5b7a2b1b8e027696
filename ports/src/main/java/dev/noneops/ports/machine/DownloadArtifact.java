package dev.noneops.ports.machine;

/** The artifacts {@code spec.agent.downloads} can redirect, with their key in the object. */
public enum DownloadArtifact {
  KUBERNETES("kubernetes"),
  CONTAINERD("containerd"),
  RUNC("runc"),
  CNI("cni"),
  CRICTL("crictl");

  private final String key;

  DownloadArtifact(String key) {
    this.key = key;
  }

  /** The key under {@code spec.agent.downloads}. */
  public String key() {
    return key;
  }
}
