/**
 * Real pods on a sandboxed node, for the system tests and the demo: {@link
 * dev.noneops.testkit.pods.RealPods} starts containers through the node's own containerd as
 * kubelet would and reads what they are made of ({@link dev.noneops.testkit.pods.RealPod}: shim,
 * process, cgroup, network namespace, address, veth).
 */
package dev.noneops.testkit.pods;
