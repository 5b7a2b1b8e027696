/**
 * The core of noneops: a node's lifecycle over the ports. Callers name {@code
 * dev.noneops.core.node} ({@code Node}, {@code Teardown}, their options, results and exceptions)
 * and the goal state, configuration and layout beside it; the feature packages under
 * {@code dev.noneops.core.node.internal} are not exported. Jackson reads and writes the records of
 * the node's state files, so those packages are open to it alone.
 */
module dev.noneops.core {
  requires transitive dev.noneops.ports;
  requires transitive org.slf4j;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.toml;
  requires com.fasterxml.jackson.dataformat.yaml;
  requires com.google.common;
  requires org.apache.commons.compress;

  exports dev.noneops.core;
  exports dev.noneops.core.config;
  exports dev.noneops.core.goalstate;
  exports dev.noneops.core.layout;
  exports dev.noneops.core.node;

  opens dev.noneops.core.config to
      com.fasterxml.jackson.databind;
  opens dev.noneops.core.node.internal.files to
      com.fasterxml.jackson.databind;
  opens dev.noneops.core.node.internal.render to
      com.fasterxml.jackson.databind;
  opens dev.noneops.core.node.internal.state to
      com.fasterxml.jackson.databind;
  opens dev.noneops.core.node.internal.version to
      com.fasterxml.jackson.databind;
}
