/**
 * The API of a node: {@link dev.noneops.core.node.Node}, bound by {@link
 * dev.noneops.core.node.Params} (and {@link dev.noneops.core.node.Overrides}) to one
 * configuration, whose operations each return a result of their own ({@code *Result}, or a
 * {@code *Report} for a list of checks) and throw typed exceptions under {@link
 * dev.noneops.core.NoneopsException}; its read-only views behind {@link
 * dev.noneops.core.node.Node#inspect()}; {@link dev.noneops.core.node.Teardown}, which removes a
 * node without harming what it does not own; and {@link dev.noneops.core.node.NodeBackend}, the
 * isolation backend with the node's phases injected.
 *
 * <p>Each operation is a short delegation to a use case of this package (package-private: {@code
 * BootstrapUseCase}, {@code ApplyUseCase}, {@code UpgradeUseCase}, ...), which runs the feature
 * packages under {@code dev.noneops.core.node.internal} as a task list and makes its result of
 * what they report. The module does not export those packages; see {@code
 * docs/concepts/modules.md} for their order.
 */
package dev.noneops.core.node;
