package dev.noneops.core.node.internal.upgrade;

/**
 * The versions an upgrade went between, and the readiness gate the target passed.
 *
 * @param previousVersion the version that was active before
 * @param targetVersion the version active now
 * @param clusterGate whether the gate included the cluster's view, not kubelet's healthz alone
 * @param gateDetail the gate in words: why it was healthz alone, or what the cluster was asked
 */
public record VersionSwitch(
    String previousVersion, String targetVersion, boolean clusterGate, String gateDetail) {}
