package dev.noneops.core.node;

import java.util.List;

/**
 * Whether the node is healthy as kubelet's allocation launch check asks (see
 * {@link NodeInspection#launchCheck()}): its units active, {@code current} a complete and verified
 * version, no upgrade in flight; otherwise every problem, one sentence each.
 *
 * @param healthy whether there is no problem
 * @param version the active version; null when there is none or {@code current} is not valid
 * @param problems what is wrong, in the order checked (version, upgrade, units)
 */
public record LaunchCheckReport(boolean healthy, String version, List<String> problems) {}
