/**
 * The work of a teardown ({@link dev.noneops.core.node.internal.teardown.TeardownSteps}): the
 * units', the shims', the pod cgroups', the configuration's and the mount-safe tree removers,
 * and what each must keep (other runtimes' shims and containerd namespaces, mounts it did not
 * make, entries from before the node), logged as a {@link
 * dev.noneops.core.node.internal.teardown.TeardownLog}.
 */
package dev.noneops.core.node.internal.teardown;
