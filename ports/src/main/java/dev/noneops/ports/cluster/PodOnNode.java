package dev.noneops.ports.cluster;

import java.util.Objects;

/**
 * A pod bound to a node, with what a drain decides on: whether a DaemonSet owns it (its
 * controller would place it again at once, so a drain leaves it) and whether it is a mirror pod
 * (kubelet's image of a static pod, annotated {@code kubernetes.io/config.mirror}: the API server
 * cannot evict it).
 */
public record PodOnNode(String namespace, String name, boolean daemonSetPod, boolean mirrorPod) {

  public PodOnNode {
    Objects.requireNonNull(namespace, "namespace");
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a pod needs a name");
    }
  }

  /** {@code namespace/name}. */
  public String ref() {
    return namespace + "/" + name;
  }

  /** Whether a drain evicts it: neither a DaemonSet's pod nor a mirror pod. */
  public boolean evictable() {
    return !daemonSetPod && !mirrorPod;
  }
}
