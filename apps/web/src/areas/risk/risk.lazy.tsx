import { createLazyRoute } from '@tanstack/react-router';
import { AssessmentsPage } from './assessments-page';
import { ControlsPage } from './controls-page';
import { InventoryPage } from './inventory-page';
import { RiskListsPage } from './lists-page';
import { RiskPage } from './risk-page';
import { RisksPage } from './risks-page';

export const riskRegisterRoute = createLazyRoute('/risk/risks/register')({
  component: () => <RisksPage library={false} />,
});

export const riskLibraryRoute = createLazyRoute('/risk/risks/library')({
  component: () => <RisksPage library />,
});

export const riskRoute = createLazyRoute('/risk/risks/register/$ref')({
  component: function RegisterRisk() {
    const { ref } = riskRoute.useParams();
    return <RiskPage key={ref} refId={ref} library={false} />;
  },
});

export const libraryRiskRoute = createLazyRoute('/risk/risks/library/$ref')({
  component: function LibraryRisk() {
    const { ref } = libraryRiskRoute.useParams();
    return <RiskPage key={ref} refId={ref} library />;
  },
});

export const controlRegisterRoute = createLazyRoute('/risk/controls/register')({
  component: () => <ControlsPage library={false} />,
});

export const controlLibraryRoute = createLazyRoute('/risk/controls/library')({
  component: () => <ControlsPage library />,
});

export const inventoryRegisterRoute = createLazyRoute('/risk/inventory/register')({
  component: () => <InventoryPage library={false} />,
});

export const inventoryLibraryRoute = createLazyRoute('/risk/inventory/library')({
  component: () => <InventoryPage library />,
});

export const riskListsRoute = createLazyRoute('/risk/lists')({ component: RiskListsPage });

export const riskAssessmentsRoute = createLazyRoute('/risk/assessments')({ component: AssessmentsPage });
