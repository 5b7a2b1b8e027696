package dev.noneops.core.node.internal.phases;

/**
 * Which families of the node's files a configure pass changed on disk, so a running stack
 * restarts only what changed.
 *
 * @param containerd containerd's configuration or unit
 * @param kubelet kubelet's configuration, kubeconfig or unit
 * @param localDns LocalDNS's Corefile or unit
 */
public record ChangedFiles(boolean containerd, boolean kubelet, boolean localDns) {}
