/**
 * The node's ports onto its cluster's API server, with fabric8 kubernetes-client on the JDK's HTTP
 * client: {@link dev.noneops.ports.machine.MachineResource} ({@link
 * dev.noneops.kubernetes.KubernetesMachineResource}: a watch that resumes by itself and re-reads
 * the Machine after every loss and periodically, and status writes through the status subresource
 * under optimistic concurrency) and {@link dev.noneops.ports.cluster.ClusterNode} ({@link
 * dev.noneops.kubernetes.KubernetesClusterNode}: cordon, the node's pods, evictions through the
 * Eviction API, the Node object's deletion). Both connect as a {@link
 * dev.noneops.kubernetes.KubernetesConnection} says, which {@link
 * dev.noneops.kubernetes.KubeconfigConnection} reads from a kubeconfig such as kubelet's.
 */
package dev.noneops.kubernetes;
