package dev.noneops.core.node;

/** A replaceable step of a node operation (GPU setup, kubelet wait, artifact download). */
@FunctionalInterface
public interface Hook {
  void run() throws Exception;
}
