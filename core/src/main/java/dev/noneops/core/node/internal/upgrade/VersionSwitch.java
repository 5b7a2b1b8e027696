package dev.noneops.core.node.internal.upgrade;

/**
 * The versions an upgrade went between.
 *
 * @param previousVersion the version that was active before
 * @param targetVersion the version active now
 */
public record VersionSwitch(String previousVersion, String targetVersion) {}
