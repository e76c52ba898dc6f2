import { CreateCategoryForm } from './category/category-form';
import { useCategoryNames } from './category/use-category-names';
import './dashboard.css';

/** A name and description form, beside the categories already in use (spec §2, §4). */
export const CreateCategoryPage = () => {
  const { names, loaded, add } = useCategoryNames();
  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>Create Category</h1>
          <p className="muted">Add a category for items that do not fit the existing ones.</p>
        </div>
      </header>
      <div className="category-layout">
        <CreateCategoryForm onCreated={add} />
        <section className="card category-list" aria-labelledby="famous-categories">
          <h2 id="famous-categories">Some Famous Categories already used</h2>
          {!loaded ? (
            <p className="muted" role="status">
              Loading categories...
            </p>
          ) : names.length === 0 ? (
            <p className="muted">No Categories Yet!!</p>
          ) : (
            <ul className="chips">
              {names.map((name, index) => (
                <li key={`${name}-${index}`} className="chip">
                  {name}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
};
