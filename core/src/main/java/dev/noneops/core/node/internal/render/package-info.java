/**
 * The pure renderers of every file a node writes (units, containerd's and kubelet's
 * configuration, the Corefile, kubeconfigs, sysctl presets, CNI links) and the writer that puts
 * them at their host paths through the ownership record.
 */
package dev.noneops.core.node.internal.render;
