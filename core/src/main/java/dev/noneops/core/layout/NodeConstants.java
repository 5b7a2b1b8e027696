package dev.noneops.core.layout;

import java.net.URI;

/** The constants of a none node that other agents and tools rely on. */
public final class NodeConstants {
  /** The slot a none node records its applied config under. */
  public static final String SLOT = "kube1";

  /** The agent command kubelet's allocation launch check runs. */
  public static final String LAUNCH_CHECK_COMMAND = "allocation-launch-check";

  /** Where the node's kernel modules are listed for boot. */
  public static final String MODULES_LOAD_PATH = "/etc/modules-load.d/unbounded-kubernetes.conf";

  /** The agent's configuration directory. */
  public static final String AGENT_CONFIG_DIR = "/etc/unbounded/agent";

  /** The applied config's file name: the none mode's own name, which older agents never read. */
  public static final String APPLIED_CONFIG_NAME = "none-" + SLOT + "-applied-config.json";

  /** The record of every shared file this node wrote (path and sha256), for safe teardown. */
  public static final String OWNERSHIP_RECORD_NAME = "none-" + SLOT + "-owned-files.json";

  /** The standard location of the agent configuration the CLI reads by default. */
  public static final String DEFAULT_CONFIG_PATH = "/etc/unbounded/agent/config.json";

  /** The sandbox (pause) image the node's containerd is configured with. */
  public static final String SANDBOX_IMAGE = "mcr.microsoft.com/oss/kubernetes/pause:3.9";

  /** Where the node's containerd serves its metrics (the containerised node's address). */
  public static final String CONTAINERD_METRICS_ADDRESS = "0.0.0.0:10257";

  /** kubelet's health endpoint, which the node's readiness wait polls. */
  public static final URI KUBELET_HEALTHZ = URI.create("http://127.0.0.1:10248/healthz");

  private NodeConstants() {}
}
