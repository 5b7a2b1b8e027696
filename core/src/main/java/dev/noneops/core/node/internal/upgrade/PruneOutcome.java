package dev.noneops.core.node.internal.upgrade;

import java.util.List;
import java.util.Map;

/**
 * What a prune removed, what it kept and why, and what it could not remove.
 *
 * @param removed the versions removed, in order
 * @param kept each kept version with its reasons, in installed order
 * @param leftBehind each version whose removal left entries, with those entries
 */
public record PruneOutcome(
    List<String> removed, Map<String, List<String>> kept, Map<String, List<String>> leftBehind) {}
