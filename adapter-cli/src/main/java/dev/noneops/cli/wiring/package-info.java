/**
 * The composition root: the only package that sees the adapters. {@link
 * dev.noneops.cli.wiring.Main} wires the real host ({@link dev.noneops.cli.wiring.RealHostConnector}:
 * the kernel adapters, systemd over D-Bus) and gives {@code noneops daemon} its clients of the
 * node's cluster, built with kubelet's own credentials: kubelet's client kubeconfig once the node
 * has joined, the bootstrap kubeconfig before, read again at every use and the clients rebuilt when
 * kubelet rotates its certificate.
 */
package dev.noneops.cli.wiring;
