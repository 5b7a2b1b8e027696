package dev.noneops.core.node;

/**
 * What the backend's {@code destroy} delegates to: the teardown that removes units, versions,
 * pods and data directories. The composition root supplies it (see {@code core.teardown}).
 */
@FunctionalInterface
public interface NodeTeardown {
  void destroy() throws Exception;
}
