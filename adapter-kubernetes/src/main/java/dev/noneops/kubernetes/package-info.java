/**
 * The {@link dev.noneops.ports.machine.MachineResource} port over a Kubernetes API server, with
 * fabric8 kubernetes-client on the JDK's HTTP client ({@link
 * dev.noneops.kubernetes.KubernetesMachineResource}): a watch that resumes by itself and re-reads
 * the Machine after every loss and periodically, and status writes through the status subresource
 * under optimistic concurrency.
 */
package dev.noneops.kubernetes;
