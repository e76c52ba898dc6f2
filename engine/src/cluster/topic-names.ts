/** The Kafka topics and consumer groups of one cluster, named from its prefix and a node's id. */
export interface ClusterNames {
  /** Every auction command, keyed by auction id; read by the nodes as one group. */
  readonly commandsTopic: string;
  /** Notifications and socket disconnects for every node. */
  readonly broadcastTopic: string;
  /** The outcomes of the commands this node sent. */
  readonly replyTopic: string;
  /** The group whose assignment of the commands topic decides which node owns which auction. */
  readonly commandsGroup: string;
  /** This node's own group, for its reply and broadcast topics. */
  readonly nodeGroup: string;
}

/**
 * The prefix as it goes before the names: empty stays empty, one that ends in `.`, `_` or `-`
 * stays as it is, any other gets a `.`: `staging` and `staging.` both give `staging.auction.commands`.
 */
export const topicNamespace = (prefix: string | undefined): string =>
  !prefix || /[._-]$/.test(prefix) ? (prefix ?? '') : `${prefix}.`;

export const clusterNames = (prefix: string | undefined, nodeId: string): ClusterNames => {
  const ns = topicNamespace(prefix);
  return {
    commandsTopic: `${ns}auction.commands`,
    broadcastTopic: `${ns}auction.broadcast`,
    replyTopic: `${ns}auction.replies.${nodeId}`,
    commandsGroup: `${ns}auction.nodes`,
    nodeGroup: `${ns}auction.node.${nodeId}`,
  };
};
