import type { AuditStep } from '@auction/contracts';
import { type Users, actorName, changeField, changeValue, userName } from './audit-words';

/** What the chosen event changed on the board: each field before and after it. */
export const AuditDiff = ({ step, users }: { step: AuditStep | undefined; users: Users }) => {
  if (!step) return null;
  return (
    <section className="card audit-diff" aria-label="What this event changed">
      <h2>What revision {step.revision} changed</h2>
      <p className="audit-muted">
        By {actorName(step, users)}
        {step.type === 'AutomaticBidPlaced' &&
          step.actor.kind === 'user' &&
          `, answering ${userName(users, step.actor.userId)}`}
      </p>
      {step.changes.length === 0 ? (
        <p className="audit-muted">Nothing on the board you may see changed.</p>
      ) : (
        <table className="audit-table audit-changes" aria-label="Changes">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {step.changes.map((change) => (
              <tr key={`${change.field}${change.bidder ?? ''}`}>
                <th scope="row">{changeField(change, users)}</th>
                <td>{changeValue(change, change.before, users)}</td>
                <td>{changeValue(change, change.after, users)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
};
