import { describe, expect, it } from 'vitest';
import { clusterNames, topicNamespace } from './topic-names';

describe('the cluster’s topic and group names', () => {
  it('have no prefix when none is given', () => {
    expect(clusterNames('', 'n1')).toEqual({
      commandsTopic: 'auction.commands',
      broadcastTopic: 'auction.broadcast',
      replyTopic: 'auction.replies.n1',
      commandsGroup: 'auction.nodes',
      nodeGroup: 'auction.node.n1',
    });
    expect(clusterNames(undefined, 'n1').commandsTopic).toBe('auction.commands');
  });

  it('keep a prefix that ends in a separator as it is', () => {
    expect(topicNamespace('staging.')).toBe('staging.');
    expect(topicNamespace('staging_')).toBe('staging_');
    expect(topicNamespace('staging-')).toBe('staging-');
    expect(clusterNames('test-1a2b.', 'n1').replyTopic).toBe('test-1a2b.auction.replies.n1');
  });

  it('put a dot after a prefix that ends in anything else', () => {
    expect(topicNamespace('staging')).toBe('staging.');
    expect(topicNamespace('eu1')).toBe('eu1.');
    expect(clusterNames('staging', 'n2')).toEqual({
      commandsTopic: 'staging.auction.commands',
      broadcastTopic: 'staging.auction.broadcast',
      replyTopic: 'staging.auction.replies.n2',
      commandsGroup: 'staging.auction.nodes',
      nodeGroup: 'staging.auction.node.n2',
    });
  });
});
