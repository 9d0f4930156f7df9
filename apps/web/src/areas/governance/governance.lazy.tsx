import { createLazyRoute, useParams } from '@tanstack/react-router';
import { FrameworkPage } from './framework-page';
import { FrameworksPage } from './frameworks-page';
import { PoliciesPage } from './policies-page';
import { PolicyPage } from './policy-page';
import { GovernanceTasksPage } from './tasks-page';

export const frameworksRoute = createLazyRoute('/governance/frameworks')({ component: FrameworksPage });

export const frameworkRoute = createLazyRoute('/governance/frameworks/$frameworkId')({
  component: function Framework() {
    const { frameworkId } = useParams({ from: '/governance/frameworks/$frameworkId' });
    return <FrameworkPage frameworkId={frameworkId} />;
  },
});

export const policiesRoute = createLazyRoute('/governance/policies')({
  component: () => <PoliciesPage kind="CUSTOM" />,
});

export const policyRoute = createLazyRoute('/governance/policies/$policyId')({
  component: function Policy() {
    const { policyId } = useParams({ from: '/governance/policies/$policyId' });
    return <PolicyPage kind="CUSTOM" policyId={policyId} />;
  },
});

export const catPoliciesRoute = createLazyRoute('/governance/cat')({
  component: () => <PoliciesPage kind="CAT" />,
});

export const catPolicyRoute = createLazyRoute('/governance/cat/$policyId')({
  component: function CatPolicy() {
    const { policyId } = useParams({ from: '/governance/cat/$policyId' });
    return <PolicyPage kind="CAT" policyId={policyId} />;
  },
});

export const governanceTasksRoute = createLazyRoute('/governance/tasks')({ component: GovernanceTasksPage });
