import { createLazyRoute, useParams } from '@tanstack/react-router';
import { FrameworkPage } from './framework-page';
import { FrameworksPage } from './frameworks-page';

export const frameworksRoute = createLazyRoute('/governance/frameworks')({ component: FrameworksPage });

export const frameworkRoute = createLazyRoute('/governance/frameworks/$frameworkId')({
  component: function Framework() {
    const { frameworkId } = useParams({ from: '/governance/frameworks/$frameworkId' });
    return <FrameworkPage frameworkId={frameworkId} />;
  },
});
