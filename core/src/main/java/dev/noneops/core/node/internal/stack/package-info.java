/**
 * The stack's units under systemd: starting, stopping and waiting for them ({@link
 * dev.noneops.core.node.internal.stack.StackControl}), and recognising a kubelet or containerd that
 * is the host's own, not the node's.
 */
package dev.noneops.core.node.internal.stack;
