package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.node.ReadinessGate;

/**
 * The versions an upgrade went between, and the readiness gate the target passed.
 *
 * @param previousVersion the version that was active before
 * @param targetVersion the version active now
 * @param gate kubelet's healthz alone, or with the cluster's view
 */
public record VersionSwitch(String previousVersion, String targetVersion, ReadinessGate gate) {}
